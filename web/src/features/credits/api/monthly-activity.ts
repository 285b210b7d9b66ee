// GET /api/monthly-activity: this calendar month's counts for the Credits page.
import { type MonthlyActivity, monthlyActivitySchema } from "@storyverse/contract/billing";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { MONTHLY_ACTIVITY_KEY } from "../../../shared/credits/credit-balance";

export function fetchMonthlyActivity(signal?: AbortSignal): Promise<MonthlyActivity> {
  return apiRequest("/api/monthly-activity", { schema: monthlyActivitySchema, signal, timeoutMs: 15_000 });
}

export const monthlyActivityQueryOptions = () =>
  queryOptions({ queryKey: MONTHLY_ACTIVITY_KEY, queryFn: ({ signal }) => fetchMonthlyActivity(signal) });

export function useMonthlyActivity() {
  return useQuery(monthlyActivityQueryOptions());
}
