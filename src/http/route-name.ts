import type { Request } from 'express';

/**
 * The route a request matched, as its template (`/hosting/api/client/:clientId`), for logs and
 * metrics, which must not get a label per id. Inside a mounted router or handler Express shows
 * only the part after the mount point, so the mount point (`baseUrl`) is put back in front.
 * Undefined when nothing matched (e.g. refused before routing).
 */
export function routeName(req: Request): string | undefined {
  const path = req.route ? `${req.baseUrl}${String(req.route.path)}` : req.baseUrl;
  if (!path) return undefined;
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}
