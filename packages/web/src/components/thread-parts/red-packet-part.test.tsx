import { OrderStatus, PayType, type OrderInfo, type RedPacketPart, type ThreadDetail } from '@luntan/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { forum, viewer } from '../../test/fixtures';
import { fakeApi, renderWithApp } from '../../test/render';
import { redPacketPartUi, type RedPacketDraft } from './red-packet-part';

const methods = (types: number[]) => () => ({
  wallet: true,
  types,
  recharge: { minAmount: '1.00', maxAmount: '100.00' },
});

function Editor({ initial }: { initial?: RedPacketDraft }) {
  const [value, setValue] = useState<RedPacketDraft | undefined>(initial);
  return (
    <>
      <redPacketPartUi.Editor value={value} onChange={setValue} categoryId={1} threadId={0} />
      <output data-testid="sent">{JSON.stringify(value ?? {})}</output>
    </>
  );
}

const order = (overrides: Partial<OrderInfo> = {}): OrderInfo => ({
  id: 3,
  orderSn: '202611270000000000000001',
  type: 9,
  status: OrderStatus.PENDING,
  amount: '2.00',
  authorAmount: '0.00',
  masterAmount: '0.00',
  userId: 7,
  payeeId: null,
  threadId: 11,
  groupId: null,
  title: '红包帖',
  paymentType: null,
  isAnonymous: false,
  createdAt: new Date().toISOString(),
  paidAt: null,
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  ...overrides,
});

const unpaid = (o: OrderInfo | null): RedPacketPart => ({
  id: 1,
  rule: 0,
  condition: 0,
  likenum: 0,
  number: 2,
  price: '1.00',
  money: '2.00',
  remainMoney: '2.00',
  remainNumber: 2,
  status: 0,
  isDone: false,
  isExpired: false,
  expiredAt: '',
  content: '',
  mine: null,
  receivers: [],
  unpaid: true,
  order: o,
});

const thread = { threadId: 11, title: '红包帖', user: { userId: 7 } } as unknown as ThreadDetail;

describe('the red packet editor', () => {
  it('offers paying online when the site takes a provider: no pay password then, and says when it is paid', async () => {
    const api = fakeApi({ '/api/v3/pay/methods': methods([PayType.SANDBOX]) });
    renderWithApp(<Editor initial={{ number: 2, price: '1.00' }} />, { api, forum: forum({ user: viewer() }) });
    const choice = await screen.findByRole('radiogroup', { name: '支付方式' });
    expect(screen.getByLabelText('支付密码')).toBeTruthy();
    fireEvent.click(within(choice).getByLabelText('在线支付'));
    expect(screen.queryByLabelText('支付密码')).toBeNull();
    expect(screen.getByTestId('red-packet-total').textContent).toContain('发布后在线支付');
    expect(JSON.parse(screen.getByTestId('sent').textContent!)).toMatchObject({ payment: 'provider' });
  });

  it('offers only the wallet when the site takes no provider', async () => {
    const api = fakeApi({ '/api/v3/pay/methods': methods([]) });
    const { ctx } = renderWithApp(<Editor />, { api, forum: forum({ user: viewer() }) });
    await screen.findByLabelText('支付密码');
    // The site's payment methods have been read (and list no provider).
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/v3/pay/methods')).toBe(true));
    await waitFor(() => expect(ctx.queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('radiogroup', { name: '支付方式' })).toBeNull();
  });

  it('sends an unpaid red packet back as paid online, a paid one as it is', () => {
    expect(redPacketPartUi.fromView(unpaid(order()))).toMatchObject({ payment: 'provider' });
    expect(redPacketPartUi.fromView({ ...unpaid(null), unpaid: false })).not.toHaveProperty('payment');
  });
});

describe('an unpaid red packet on its thread', () => {
  it('lets its author pay the order through a provider only', async () => {
    const api = fakeApi({
      '/api/v3/pay/methods': methods([PayType.SANDBOX]),
      '/api/v3/wallet/user': () => ({ availableAmount: '50.00', hasPayPassword: true, walletStatus: 0 }),
    });
    renderWithApp(<redPacketPartUi.View body={unpaid(order())} thread={thread} />, {
      api,
      forum: forum({ user: viewer() }),
    });
    expect(screen.getByTestId('red-packet-unpaid').textContent).toContain('红包待支付');
    expect(screen.queryByTestId('red-packet-hint')).toBeNull();
    fireEvent.click(screen.getByTestId('red-packet-pay'));
    await screen.findByTestId(`pay-method-${PayType.SANDBOX}`);
    expect(screen.getByTestId('pay-amount').textContent).toContain('2.00');
    expect(screen.queryByTestId(`pay-method-${PayType.WALLET}`)).toBeNull();
  });

  it('says how to pay again once its order lapsed', () => {
    renderWithApp(<redPacketPartUi.View body={unpaid(order({ status: OrderStatus.EXPIRED }))} thread={thread} />, {
      forum: forum({ user: viewer() }),
    });
    expect(screen.queryByTestId('red-packet-pay')).toBeNull();
    const link = screen.getByRole('link', { name: '编辑帖子' });
    expect(link.getAttribute('href')).toBe('/thread/post?threadId=11');
  });
});
