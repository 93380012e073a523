import { useMutation } from '@tanstack/react-query';
import { apiRoutes, type ApiCall } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';

export type PreviewBody = ApiCall<typeof apiRoutes.bankPreview>['body'];

/** Reads the statement on the server: its incoming lines with who may have paid each. */
export const usePreviewStatement = () =>
  useMutation({
    mutationFn: (body: PreviewBody) => callApi(apiRoutes.bankPreview, { body }),
  });
