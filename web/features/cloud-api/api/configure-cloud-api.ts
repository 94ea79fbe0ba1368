import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  BusinessConfig,
  ConfigureBusinessInput,
  configureBusinessResponse,
} from '../../../../contract/whatsapp-business';
import { api } from '../../../lib/api';
import { businessConfigQueryKey } from './get-business-config';
import { businessHealthQueryKey, getBusinessHealth } from './get-business-health';
import { businessProfileQueryKey } from './get-business-profile';

export function configureBusiness(input: ConfigureBusinessInput): Promise<z.infer<typeof configureBusinessResponse>> {
  return api.post('/api/whatsapp-business/configure', input);
}

/** After a successful configuration health is re-checked and the profile fetched (SPEC §4). */
export function useConfigureBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: configureBusiness,
    onSuccess: async (res) => {
      queryClient.setQueryData<BusinessConfig>(businessConfigQueryKey, res.config);
      queryClient.setQueryData(businessHealthQueryKey, await getBusinessHealth(true));
      await queryClient.invalidateQueries({ queryKey: businessProfileQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['/api/whatsapp/channel'] });
    },
  });
}
