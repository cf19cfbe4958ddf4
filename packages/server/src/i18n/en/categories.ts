import type { Texts } from '../texts.js';
import type { categories as zh } from '../zh/categories.js';

/** The server's English messages: categories (the keys of zh/categories.ts). */
export const categories = {
  parentCategoryDoesNot: 'The parent category does not exist or is not a top-level one',
  categorySubCategoriesCannot: 'A category with sub-categories cannot become a sub-category',
  threadsCannotMoveCategory: 'The threads cannot move to the category being deleted',
  categoryStillHoldsThreads: 'The category still holds threads or sub-categories',
} as const satisfies Texts<typeof zh>;
