import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';

/** Hydrates every server-rendered instance of one island on the page. */
export function hydrateIslands(name: string, Component: ComponentType<any>): void {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const props = JSON.parse(el.dataset.props ?? '{}');
    hydrateRoot(el, createElement(Component, props));
  }
}
