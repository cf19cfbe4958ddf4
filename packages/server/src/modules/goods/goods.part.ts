import { formatMoney, ThreadPart, type GoodsPart, type GoodsPartBody } from '@luntan/shared';
import type { ThreadPartHandler } from '../thread-parts/index.js';

/** What a product card keeps (thread_parts.value): its fields, the price in cents. */
interface GoodsValue {
  title: string;
  priceCents: number | null;
  imagePath: string;
  detailContent: string;
  type: number;
}

const valueOf = (body: GoodsPartBody): GoodsValue => ({
  title: body.title,
  priceCents: body.price ?? null,
  imagePath: body.imagePath ?? '',
  detailContent: body.detailContent,
  type: body.type ?? 99,
});

/**
 * A product card (part 104): shown to everyone who may read the thread, paid or not (it is an advertisement, not
 * content). Nothing is sold through the forum; the card links to the shop's page.
 */
export const goodsPart: ThreadPartHandler<typeof ThreadPart.GOODS, GoodsValue> = {
  type: ThreadPart.GOODS,
  create: async (_trx, _write, body) => valueOf(body),
  update: async (_trx, _write, body) => valueOf(body),
  present: async (_db, _read, value): Promise<GoodsPart> => ({
    title: value.title,
    price: value.priceCents === null ? '' : formatMoney(value.priceCents),
    imagePath: value.imagePath,
    detailContent: value.detailContent,
    type: value.type,
  }),
};
