import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CloudApiConfig, ConfigureCloudApiInput, configureCloudApiResponse } from '#contract/cloud-api';
import { api } from '#web/lib/api';
import {
  businessProfileQueryKey,
  cloudApiConfigQueryKey,
  cloudApiHealthQueryKey,
  connectionsQueryKey,
  whatsappChannelQueryKey,
} from '#web/lib/query-keys';
import { getCloudApiHealth } from './get-cloud-api-health';

export function configureCloudApi(input: ConfigureCloudApiInput): Promise<z.infer<typeof configureCloudApiResponse>> {
  return api.post('/api/whatsapp-business/configure', input);
}

/** After a successful configuration health is re-checked and the profile fetched (SPEC §4). */
export function useConfigureCloudApi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: configureCloudApi,
    onSuccess: async (res) => {
      queryClient.setQueryData<CloudApiConfig>(cloudApiConfigQueryKey, res.config);
      queryClient.setQueryData(cloudApiHealthQueryKey, await getCloudApiHealth(true));
      await queryClient.invalidateQueries({ queryKey: businessProfileQueryKey });
      await queryClient.invalidateQueries({ queryKey: whatsappChannelQueryKey });
      // The first configuration adds the account's Cloud number: 'Números' lists it.
      await queryClient.invalidateQueries({ queryKey: connectionsQueryKey });
    },
  });
}
