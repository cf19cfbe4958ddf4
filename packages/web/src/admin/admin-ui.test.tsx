import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render';
import { useConfirmDelete } from './admin-ui';

const ADMIN_DIR = path.dirname(fileURLToPath(import.meta.url));

function Asker({ onAnswer }: { onAnswer: (ok: boolean) => void }) {
  const { confirmDelete, dialog } = useConfirmDelete();
  return (
    <>
      <button type="button" onClick={() => void confirmDelete('删掉它吗？').then(onAnswer)}>
        ask
      </button>
      {dialog}
    </>
  );
}

describe('asking before deleting', () => {
  it('asks in the site dialog and answers with the button pressed', async () => {
    const answers: boolean[] = [];
    renderWithApp(<Asker onAnswer={(ok) => answers.push(ok)} />);
    fireEvent.click(screen.getByRole('button', { name: 'ask' }));
    const dialog = await screen.findByRole('dialog', { name: '确认删除' });
    expect(dialog.textContent).toContain('删掉它吗？');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '取消' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'ask' }));
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: '删除' }));
    });
    expect(answers).toEqual([false, true]);
  });

  it('is the only way the back office asks: no window.confirm left in it', () => {
    const sources = fs
      .readdirSync(ADMIN_DIR)
      .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.tsx'))
      .filter((name) => /\b(window|globalThis)\.confirm\b/.test(fs.readFileSync(path.join(ADMIN_DIR, name), 'utf8')));
    expect(sources).toEqual([]);
  });
});
