/** The server's Chinese messages: categories. */
export const categories = {
  parentCategoryDoesNot: '上级分类不存在或不是一级分类',
  categorySubCategoriesCannot: '有子分类的分类不能成为子分类',
  threadsCannotMoveCategory: '主题不能转入要删除的分类',
  categoryStillHoldsThreads: '分类下还有主题或子分类',
} as const;
