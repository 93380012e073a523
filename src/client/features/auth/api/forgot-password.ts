import { useMutation } from '@tanstack/react-query';
import type {
  ForgotPasswordResponse,
  ForgotPasswordBody,
} from '../../../../shared/schemas/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Asks the server to e-mail a reset link; its answer is the same for every e-mail. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) =>
      apiRequest<ForgotPasswordResponse>('POST', '/api/auth/forgot-password', {
        body,
      }),
  });
}
