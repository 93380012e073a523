import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody } from '../../../../shared/schemas/auth.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';

/** Asks the server to e-mail a reset link; its answer is the same for every e-mail. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => callApi(apiRoutes.forgotPassword, { body }),
  });
}
