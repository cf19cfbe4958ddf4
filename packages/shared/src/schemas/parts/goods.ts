import { z } from 'zod';
import { labeled } from '../field-labels.js';
import { moneyField } from '../money-field.js';
import { httpAddress, partLine } from './common.js';
import { GOODS_PRICE_MAX_CENTS, GOODS_TITLE_MAX } from '../../thread-part-limits.js';

/**
 * A product card (part 104, thread.insertGoods), in the family's shape (`post_goods`): the product's title, price,
 * picture and page. `POST /api/v3/goods/analysis` fills it from a product page; it can be typed by hand too.
 */
export const goodsPartBody = z.object({
  title: labeled(partLine(GOODS_TITLE_MAX), { zh: '商品名称', en: 'Product name' }),
  /** What the shop asks ("59.90"); shown as it is. */
  price: labeled(moneyField(0, GOODS_PRICE_MAX_CENTS), { zh: '商品价格', en: 'Product price' }).optional(),
  /** The product's picture. */
  imagePath: labeled(httpAddress(), { zh: '商品图片', en: 'Product picture' }).optional(),
  /** The product's page. */
  detailContent: labeled(httpAddress(), { zh: '商品链接', en: 'Product link' }),
  /** Where the product is sold, as the family numbers shops (0 Taobao, 1 Tmall, 2 JD, …; 99 other). */
  type: z.number().int().min(0).max(99).optional(),
});
export type GoodsPartBody = z.infer<typeof goodsPartBody>;

/** Part 104 as thread.detail answers it. */
export interface GoodsPart {
  title: string;
  /** "59.90", or "" when none was given. */
  price: string;
  imagePath: string;
  detailContent: string;
  type: number;
}
