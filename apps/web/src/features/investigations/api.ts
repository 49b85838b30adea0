// The near screen's reads: GET /location/near and GET /location/contacts (decision 068).
import { useQuery } from '@tanstack/react-query';
import type { ContactsResponse, NearResponse } from '@prison/shared/investigations';
import { api } from '../../lib/api-client';
import { nearApiQuery, subjectText, type NearQuestion, type Subject } from './near-params';

export function useNear(question: NearQuestion | null) {
  return useQuery({
    queryKey: ['investigations', 'near', question],
    queryFn: ({ signal }) => api.get<NearResponse>('/location/near', nearApiQuery(question!), signal),
    enabled: question !== null,
    retry: false,
  });
}

export function useContacts(question: NearQuestion | null, other: Subject | null) {
  const enabled = question !== null && question.subject.kind !== 'place' && other !== null && other.kind !== 'place';
  return useQuery({
    queryKey: ['investigations', 'contacts', question, other],
    queryFn: ({ signal }) =>
      api.get<ContactsResponse>('/location/contacts', {
        a: subjectText(question!.subject),
        b: subjectText(other!),
        from: question!.from,
        to: question!.to,
        radius_m: question!.radiusM,
      }, signal),
    enabled,
    retry: false,
  });
}
