/** Community-configured images: absolute URLs and data: URIs as they are, anything else relative to /static/. */
export function assetUrl(basePath: string, value: string): string {
  if (/^https?:\/\//.test(value) || value.startsWith('data:')) return value;
  return `${basePath}/static/${value.replace(/^\/+/, '')}`;
}
