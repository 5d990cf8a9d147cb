import { defineRoute } from './route.js';
import { ExtensionInfoResponseSchema, LinkLookupQuerySchema, LinkLookupResponseSchema } from './extension.js';

/** The browser extension's routes (its sign-in routes live with the other auth routes). */
export const extensionRoutes = {
  lookupLink: defineRoute({
    method: 'GET',
    path: '/api/links/lookup',
    auth: true,
    status: 200,
    tag: 'links',
    summary: "The user's link with this URL once normalised (the same key as duplicate detection), or null",
    query: LinkLookupQuerySchema,
    response: LinkLookupResponseSchema,
  }),
  extensionInfo: defineRoute({
    method: 'GET',
    path: '/api/extension/info',
    auth: false,
    status: 200,
    tag: 'extension',
    summary: 'Store pages of the browser extensions, when configured, and the downloads this server offers',
    response: ExtensionInfoResponseSchema,
  }),
} as const;
