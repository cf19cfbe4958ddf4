import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';

/** The envelope of every answer under /api. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    Code: z.number().int(),
    Message: z.string(),
    Data: data,
    RequestId: z.string(),
    RequestTime: z.string(),
  });

export interface Envelope<T = unknown> {
  Code: number;
  Message: string;
  Data: T;
  RequestId: string;
  RequestTime: string;
}

export interface Page<T> {
  pageData: T[];
  currentPage: number;
  perPage: number;
  totalCount: number;
  totalPage: number;
}

/** Query strings carry numbers as text: accept both. */
export const queryInt = z.coerce.number().int();

export const paginationQuery = z.object({
  page: queryInt.min(1).default(1),
  perPage: queryInt.min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const emptyData = z.object({}).strict();
