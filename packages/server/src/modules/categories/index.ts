// The public face of the categories module: what other modules and the app's assembly may use from it
// (docs/architecture.md, "Modules"). Files inside the module import each other directly.
export { bumpCategoryThreadCount, findCategory, insertCategory, listCategories } from './categories.repository.js';
export { categoriesRoutes } from './categories.routes.js';
export { categoriesOf } from './kept-categories.js';
export { categoryNotFound, presentCategories } from './categories.service.js';
