import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { Avatar, avatarImageUrl, imageQuality } from './avatar';
import { AvatarGroup } from './avatar-group';
import { Badge, badgeSize, badgeText } from './badge';
import { Button } from './button';
import { Icon } from './icon';
import { Menu, MenuItem } from './menu';
import { Spinner } from './spinner';
import { keepNumberCharacters, normaliseNumber, removeWhitespace, TextInput } from './text-input';
import { Textarea } from './textarea';

afterEach(() => vi.useRealTimers());

describe('Badge', () => {
  it('hides at 0, shows 99+ above 99 and uses the middle size from 10 to 99', () => {
    expect(badgeText(5)).toBe('5');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeSize(9)).toBe('small');
    expect(badgeSize(10)).toBe('middle');
    expect(badgeSize(99)).toBe('middle');
    expect(badgeSize(100)).toBe('large');

    const { rerender } = renderWithApp(<Badge count={0}>Message</Badge>);
    expect(screen.queryByTestId('badge')).toBeNull();
    rerender(<></>);
  });

  it('renders the count with its size class', () => {
    renderWithApp(
      <>
        <Badge count={3}>a</Badge>
        <Badge count={42}>b</Badge>
        <Badge count={250}>c</Badge>
      </>,
    );
    const badges = screen.getAllByTestId('badge');
    expect(badges.map((b) => b.textContent)).toEqual(['3', '42', '99+']);
    expect(badges[0]!.className).toContain('lt-badge--small');
    expect(badges[1]!.className).toContain('lt-badge--middle');
    expect(badges[2]!.className).not.toContain('lt-badge--middle');
  });
});

describe('Avatar', () => {
  it('keeps a gif a gif and asks for any other image as a png with a quality level (default 6)', () => {
    expect(avatarImageUrl('/a/b.gif')).toEqual({ url: '/a/b.gif', kind: 'gif' });
    expect(avatarImageUrl('/a/b.GIF?x=1')).toEqual({ url: '/a/b.GIF?x=1', kind: 'gif' });
    const png = avatarImageUrl('/a/b.jpg', undefined, 375);
    expect(png.kind).toBe('png');
    expect(png.url).toBe(`/a/b.jpg?format=png&quality=${imageQuality(6, 375)}`);
    expect(avatarImageUrl('/a/b.jpg?v=2', 6, 375).url).toBe(`/a/b.jpg?v=2&format=png&quality=${imageQuality(6, 375)}`);
    expect(avatarImageUrl('/a/b.jpg', 100).url).toBe('/a/b.jpg?format=png&thumbnail=500x500');
  });

  it('chooses lower quality for larger levels and wider screens, between 70 and 10', () => {
    expect(imageQuality(0, 375)).toBe(70);
    expect(imageQuality(6, 375)).toBeGreaterThan(imageQuality(6, 800));
    expect(imageQuality(6, 800)).toBeGreaterThan(imageQuality(6, 1080));
    expect(imageQuality(50, 1200)).toBe(10);
  });

  it('defaults to size primary and square corners', () => {
    const { container } = renderWithApp(<Avatar image="/u.png" text="Zoe" />);
    const avatar = container.querySelector('.lt-avatar')!;
    expect(avatar.getAttribute('data-size')).toBe('primary');
    expect(avatar.className).not.toContain('lt-avatar--circle');
    expect(avatar.querySelector('img')!.getAttribute('src')).toMatch(/^\/u\.png\?format=png&quality=\d+$/);
  });

  it('supports the four sizes, the circle, and falls back to the first character', () => {
    const { container } = renderWithApp(
      <>
        <Avatar size="large" circle text="bob" />
        <Avatar size="small" />
        <Avatar size="big" />
      </>,
    );
    const [large, small, big] = Array.from(container.querySelectorAll('.lt-avatar'));
    expect(large!.className).toContain('lt-avatar--circle');
    expect(large!.textContent).toBe('B');
    expect(small!.querySelector('svg')!.getAttribute('width')).toBe('14');
    expect(big!.querySelector('svg')!.getAttribute('width')).toBe('60');
  });

  it('renders an avatar group with each item’s image, text, className and style', () => {
    const { container } = renderWithApp(
      <AvatarGroup
        items={[
          { image: '/1.gif', className: 'first' },
          { text: 'Yan', style: { outline: '1px solid red' } },
          { text: 'Zed' },
        ]}
        max={2}
      />,
    );
    const avatars = container.querySelectorAll('.lt-avatar');
    expect(avatars).toHaveLength(2);
    expect(avatars[0]!.className).toContain('first');
    expect(avatars[0]!.querySelector('img')!.getAttribute('src')).toBe('/1.gif');
    expect((avatars[1] as HTMLElement).getAttribute('style')).toContain('outline');
    expect(container.textContent).toContain('+1');
  });
});

describe('Textarea', () => {
  it('shows the length/limit counter and is 25 px per row', () => {
    renderWithApp(<Textarea aria-label="bio" maxLength={100} showLimit rows={4} defaultValue="hello" />);
    const box = screen.getByLabelText('bio');
    expect(box.style.height).toBe('100px');
    expect(screen.getByText('5/100')).toBeTruthy();
    fireEvent.change(box, { target: { value: 'hello!!' } });
    expect(screen.getByText('7/100')).toBeTruthy();
  });

  it('is active while focused', () => {
    const { container } = renderWithApp(<Textarea aria-label="bio" />);
    const box = screen.getByLabelText('bio');
    fireEvent.focus(box);
    expect(container.querySelector('.lt-field--active')).not.toBeNull();
    fireEvent.blur(box);
    expect(container.querySelector('.lt-field--active')).toBeNull();
  });

  it('blocks input when disabled', () => {
    const onChange = vi.fn();
    renderWithApp(<Textarea aria-label="bio" disabled onChange={onChange} />);
    const box = screen.getByLabelText('bio') as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    fireEvent.change(box, { target: { value: 'typed' } });
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('TextInput', () => {
  it('number mode keeps digits, plus and dot', () => {
    expect(keepNumberCharacters('a1b2.5+x')).toBe('12.5+');
    const onChange = vi.fn();
    renderWithApp(<TextInput label="amount" mode="number" onChange={onChange} />);
    fireEvent.change(screen.getByLabelText('amount'), { target: { value: '12ab.5' } });
    expect(onChange).toHaveBeenLastCalledWith('12.5', expect.anything());
  });

  it('number mode normalises on blur, or restores the previous value when invalid', () => {
    expect(normaliseNumber('007.50', '')).toBe('7.5');
    expect(normaliseNumber('+3', '')).toBe('3');
    expect(normaliseNumber('1.2.3', '9')).toBe('9');
    expect(normaliseNumber('1+2', '4')).toBe('4');
    expect(normaliseNumber('', '4')).toBe('');

    renderWithApp(<TextInput label="amount" mode="number" defaultValue="5" />);
    const input = screen.getByLabelText('amount') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '08.0' } });
    fireEvent.blur(input);
    expect(input.value).toBe('8');
    fireEvent.change(input, { target: { value: '1..2' } });
    fireEvent.blur(input);
    expect(input.value).toBe('8');
  });

  it('trim removes all whitespace', () => {
    expect(removeWhitespace(' a b\tc\n')).toBe('abc');
    renderWithApp(<TextInput label="code" trim />);
    const input = screen.getByLabelText('code') as HTMLInputElement;
    fireEvent.change(input, { target: { value: ' 12 34 ' } });
    expect(input.value).toBe('1234');
  });

  it('shows length/maxLength and an append area 50px wide by default', () => {
    renderWithApp(<TextInput label="name" maxLength={10} showLimit defaultValue="abc" append="@" />);
    expect(screen.getByText('3/10')).toBeTruthy();
    expect(screen.getByTestId('input-append').style.width).toBe('50px');
  });

  it('accepts another append width', () => {
    renderWithApp(<TextInput label="name" append="kg" appendWidth="80px" />);
    expect(screen.getByTestId('input-append').style.width).toBe('80px');
  });
});

describe('Button, Menu, Icon, Spinner', () => {
  it('a loading button shows a spinner and ignores clicks', () => {
    const onClick = vi.fn();
    const { rerender } = renderWithApp(<Button onClick={onClick}>Go</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    rerender(<></>);
  });

  it('blocks clicks while loading', () => {
    const onClick = vi.fn();
    renderWithApp(
      <Button onClick={onClick} loading>
        Go
      </Button>,
    );
    const button = screen.getByRole('button', { name: /Go/ });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status')).toBeTruthy();
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('a menu lists its items and moves focus with the arrow keys', () => {
    const onPick = vi.fn();
    renderWithApp(
      <Menu label="actions">
        <MenuItem onClick={onPick}>One</MenuItem>
        <MenuItem to="/two">Two</MenuItem>
      </Menu>,
    );
    const items = screen.getAllByRole('menuitem');
    expect(items).toHaveLength(2);
    expect(items[1]!.getAttribute('href')).toBe('/two');
    items[0]!.focus();
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.click(items[0]!);
    expect(onPick).toHaveBeenCalled();
  });

  it('an icon is decorative unless titled; a spinner announces loading', () => {
    const { container } = renderWithApp(
      <>
        <Icon name="home" />
        <Icon name="search" title="Search" />
        <Spinner />
      </>,
    );
    expect(container.querySelector('[data-icon="home"]')!.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('img', { name: 'Search' })).toBeTruthy();
    expect(screen.getByRole('status', { name: '加载中' })).toBeTruthy();
  });
});

describe('timers', () => {
  it('uses fake timers in the dropdown and toast suites', () => {
    vi.useFakeTimers();
    const spy = vi.fn();
    setTimeout(spy, 10);
    act(() => {
      vi.advanceTimersByTime(10);
    });
    expect(spy).toHaveBeenCalled();
  });
});
