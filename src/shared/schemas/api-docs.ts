import { z } from 'zod/mini';

/** The API reference page's own files, served beside it under /api/docs/. */
export const apiDocsAssetParams = z.object({
  file: z.enum(['swagger-ui.css', 'swagger-ui-bundle.js', 'docs.js']),
});
