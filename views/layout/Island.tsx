import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { islandComponents, type IslandName, type IslandProps } from '#islands/registry.ts';
import { usePage } from './page-context.tsx';

/**
 * Renders an island on the server (the same markup the browser hydrates) and records it, so the page
 * ships the script of exactly the islands it renders and none otherwise.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  const page = usePage();
  page.islands.add(name);
  const Component = islandComponents[name] as (p: IslandProps<N>) => React.ReactNode;
  const html = renderToString(createElement(Component, props));
  return <div className="island" data-island={name} data-props={JSON.stringify(props)} dangerouslySetInnerHTML={{ __html: html }} />;
}
