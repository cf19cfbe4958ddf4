import { fireEvent, screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { PlainLinkNavigator } from '../plain-link';
import { Pager, pageWindow } from './pager';

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

function PagedList({ total }: { total: number }) {
  const { search } = useLocation();
  const current = Number(new URLSearchParams(search).get('page') ?? 1);
  return (
    <PlainLinkNavigator>
      <Where />
      <Pager current={current} total={total} />
    </PlainLinkNavigator>
  );
}

const hrefs = () => [...document.querySelectorAll('.lt-pager a')].map((a) => [a.textContent, a.getAttribute('href')]);

describe('Pager', () => {
  it('shows the first, the last and two around the current page, with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, null, 3, 4, 5, 6, 7, null, 10]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
  });

  it('links every page by its address, keeping the other parameters, and marks the current one', () => {
    renderWithApp(<PagedList total={5} />, { path: '/?tab=hot&page=2' });
    expect(hrefs()).toEqual([
      ['上一页', '/?tab=hot'],
      ['1', '/?tab=hot'],
      ['2', '/?tab=hot&page=2'],
      ['3', '/?tab=hot&page=3'],
      ['4', '/?tab=hot&page=4'],
      ['5', '/?tab=hot&page=5'],
      ['下一页', '/?tab=hot&page=3'],
    ]);
    expect(screen.getByText('2').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('3').getAttribute('aria-current')).toBeNull();
  });

  it('moves to another page in the app', () => {
    const { router } = renderWithApp(<PagedList total={5} />, { path: '/?tab=hot&page=2' });
    fireEvent.click(screen.getByText('下一页'), { button: 0 });
    expect(screen.getByTestId('where').textContent).toBe('/?tab=hot&page=3');
    expect(router.state.location.search).toBe('?tab=hot&page=3');
    expect(screen.getByText('3').getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByText('上一页'), { button: 0 });
    expect(screen.getByTestId('where').textContent).toBe('/?tab=hot&page=2');
  });

  it('shows nothing when there is one page', () => {
    renderWithApp(<PagedList total={1} />, { path: '/' });
    expect(document.querySelector('.lt-pager')).toBeNull();
  });
});
