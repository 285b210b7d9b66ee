// HTTP for balances, prices, the ledger's history and this month's activity.
import {
  creditHistoryQuerySchema,
  creditHistoryResponseSchema,
  monthlyActivitySchema,
} from "@storyverse/contract/billing";
import {
  CREDIT_COSTS,
  creditBalanceSchema,
  quotaResponseSchema,
  UNKNOWN_KIND_COST,
} from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { monthlyActivity, type StoriesCreated } from "./activity";
import { creditHistory } from "./history";
import { remainingCredits } from "./service";

const tags = ["credits"];

/** `storiesCreated`: the stories module's count for the monthly activity (composed in app.ts). */
export const creditRoutes: RouteModule<RouteModuleOptions & { storiesCreated: StoriesCreated }> = async (
  app,
  { ctx, storiesCreated },
) => {
  app.get(
    "/api/credit-balance",
    {
      schema: {
        tags,
        summary: "Remaining credits (-1 = unlimited)",
        response: { 200: creditBalanceSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const remaining = await remainingCredits(ctx.db, currentUser(request).id);
      return { remaining, unlimited: remaining === -1 };
    },
  );

  app.get(
    "/api/quota",
    {
      schema: {
        tags,
        summary: "Remaining credits and the price list",
        response: { 200: quotaResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const remaining = await remainingCredits(ctx.db, currentUser(request).id);
      return {
        remaining,
        unlimited: remaining === -1,
        costs: { ...CREDIT_COSTS, unknown: UNKNOWN_KIND_COST },
      };
    },
  );

  app.get(
    "/api/credit-history",
    {
      schema: {
        tags,
        summary: "Your credit transactions, newest first (page with limit and before)",
        querystring: creditHistoryQuerySchema,
        response: { 200: creditHistoryResponseSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => creditHistory(ctx.db, currentUser(request).id, request.query),
  );

  app.get(
    "/api/monthly-activity",
    {
      schema: {
        tags,
        summary: "This calendar month's activity (UTC): chats, images, videos, stories, credits used",
        response: { 200: monthlyActivitySchema, 401: errorBodySchema },
      },
    },
    async (request) => monthlyActivity(ctx.db, currentUser(request).id, ctx.clock.now(), storiesCreated),
  );
};
