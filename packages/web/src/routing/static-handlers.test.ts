import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../app-context';
import { createRoutes } from '../route-table';
import { staticHandlers } from './static-handlers';

const routes = createRoutes(
  ({ context }) => context as unknown as AppContext,
  () => '',
);

/** Every path the table names, its parameters filled in, as a visitor could type it. */
function pathsOf(table: RouteObject[], parent = ''): string[] {
  const paths: string[] = [];
  for (const route of table) {
    const path =
      route.path === undefined ? parent : `${parent.replace(/\/+$/, '')}/${route.path}`.replace(/^\/\//, '/');
    if (route.index || route.path !== undefined) {
      paths.push((path || '/').replace(/:[\w-]+/g, '12').replace(/\*$/, 'a/b'));
    }
    if (route.children) paths.push(...pathsOf(route.children, path));
  }
  return paths;
}

const named = pathsOf(routes);
const visited = [
  ...named,
  ...named.map((path) => path.toUpperCase()),
  ...named.map((path) => `${path}/`),
  ...named.map((path) => `${path}/more`),
  '/',
  '/thread/post',
  '/Thread/Post',
  '/thread/12/extra',
  '/thread',
  '/user/',
  '/user',
  '/plugin',
  '/plugin/app',
  '/admin/groups/3/permissions',
  '/admin/nothing',
  '/nothing/here',
  '/%74hread/12',
  '/thread%2F12',
  '//thread/12',
  '/search/x',
  '/404',
];

const idsOf = (table: RouteObject[], path: string) =>
  (matchRoutes(table, path) ?? []).map((match) => match.route.id).join(' > ');

describe('the static handler of a page’s first segment', () => {
  const handlers = staticHandlers(routes);

  it('matches every path as the whole table does', () => {
    expect(named.length).toBeGreaterThan(50);
    for (const path of visited) {
      expect(`${path}: ${idsOf(handlers.for(path).dataRoutes, path)}`).toBe(
        `${path}: ${idsOf(handlers.all.dataRoutes, path)}`,
      );
    }
    expect(idsOf(handlers.for('/thread/12').dataRoutes, '/thread/12')).toBe('root > page > thread');
    expect(idsOf(handlers.for('/Thread/Post').dataRoutes, '/Thread/Post')).toBe('root > page > post');
    expect(idsOf(handlers.for('/nothing/here').dataRoutes, '/nothing/here')).toBe('root > page > not-found');
  });

  it('holds only the routes that can match under the segment, and one handler per segment', () => {
    const count = (table: RouteObject[]): number => table.reduce((n, route) => n + 1 + count(route.children ?? []), 0);
    const whole = count(handlers.all.dataRoutes);
    const thread = handlers.for('/thread/12');
    expect(thread).not.toBe(handlers.all);
    expect(count(thread.dataRoutes)).toBeLessThan(8);
    expect(count(handlers.for('/').dataRoutes)).toBeLessThan(8);
    expect(count(handlers.for('/admin/users').dataRoutes)).toBeGreaterThan(20);
    expect(count(handlers.for('/admin/users').dataRoutes)).toBeLessThan(whole);
    expect(handlers.for('/THREAD/5')).toBe(thread);
    expect(handlers.for('/nothing')).toBe(handlers.for('/else/where'));
    // Paths that are not plain go to the whole table.
    expect(handlers.for('/%74hread/12')).toBe(handlers.all);
    expect(handlers.for('//thread/12')).toBe(handlers.all);
  });
});
