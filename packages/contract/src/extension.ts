import { z } from 'zod';
import { LinkSchema, UrlSchema } from './links.js';

export * from './extension-constants.js';

export const LinkLookupQuerySchema = z.object({ url: UrlSchema });
export type LinkLookupQuery = z.infer<typeof LinkLookupQuerySchema>;

export const LinkLookupResponseSchema = z.object({ data: LinkSchema.nullable() });
export type LinkLookupResponse = z.infer<typeof LinkLookupResponseSchema>;

/** Where the install buttons go: store pages when configured, else this server's downloads. */
export const ExtensionInfoResponseSchema = z.object({
  stores: z.object({
    chrome: z.string().nullable(),
    edge: z.string().nullable(),
    firefox: z.string().nullable(),
  }),
  downloads: z.object({
    chrome: z.string().nullable(),
    firefox: z.string().nullable(),
  }),
});
export type ExtensionInfoResponse = z.infer<typeof ExtensionInfoResponseSchema>;
