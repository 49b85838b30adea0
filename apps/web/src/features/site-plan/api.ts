// The site plan screen's calls: the list (shared with every map), upload, replace, default and delete.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SitePlan } from '@prison/shared/site-plan';
import type { PlanPoint } from '@prison/shared/site-plan-fit';
import { api } from '../../lib/api-client';

export function usePlanMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['site-plans'] });
  const save = useMutation({
    mutationFn: ({ id, name, points, file }: { id?: number; name: string; points: PlanPoint[]; file: File | null }) => {
      const form = new FormData();
      form.set('name', name);
      form.set('points', JSON.stringify(points));
      if (file) form.set('file', file);
      return id ? api.put<SitePlan>(`/site-plans/${id}`, form) : api.post<SitePlan>('/site-plans', form);
    },
    onSuccess: refresh,
  });
  const makeDefault = useMutation({ mutationFn: (id: number) => api.put<SitePlan>(`/site-plans/${id}/default`), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: number) => api.delete<void>(`/site-plans/${id}`), onSuccess: refresh });
  return { save, makeDefault, remove };
}
