import { z } from 'zod';
import { labeled } from '../field-labels.js';
import { httpAddress } from './common.js';

/** The longest product address `POST /api/v3/goods/analysis` takes (the family's limit). */
export const GOODS_ADDRESS_MAX = 1500;

/**
 * POST /api/v3/goods/analysis: reads a product page (its OpenGraph, schema.org Product JSON-LD and <title>) and
 * answers a product card's fields, to fill the goods part (104) before it is posted. Only http(s) addresses.
 */
export const goodsAnalysisBody = z.object({
  address: labeled(httpAddress(GOODS_ADDRESS_MAX), { zh: '商品链接', en: 'Product link' }),
});
export type GoodsAnalysisBody = z.infer<typeof goodsAnalysisBody>;

/**
 * What goods/analysis answers, the family's shape (post_goods) without its storage fields: the card's fields
 * (title, price, imagePath, detailContent, type) ready for part 104, and the address as given (readyContent).
 */
export interface GoodsAnalysis {
  title: string;
  /** "59.90", or "" when the page names no price. */
  price: string;
  /** The product's picture (http(s)), or "". */
  imagePath: string;
  /** The product's page: the address as given. */
  detailContent: string;
  /** The shop, as the family numbers them (0 Taobao, 1 Tmall, 2 JD, 3 Pinduoduo, 4 Youzan; 99 other). */
  type: number;
  readyContent: string;
  /** 0: on sale (the family's status; a page that could be read is taken as on sale). */
  status: number;
}
