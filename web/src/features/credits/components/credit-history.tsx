// The credit history: every purchase, bonus, charge and refund, newest
// first, with a Load more for older pages.
import type { CreditTransaction } from "@storyverse/contract/billing";
import { Gift, History, type LucideIcon, ShoppingBag, Undo2, Zap } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { translateServerMessage } from "../../../i18n/server-messages";
import { creditLabel, formatBalance } from "../../../lib/credits";
import { useCreditHistory } from "../api/credit-history";
import {
  formatDateTime,
  signedAmount,
  type TransactionCategory,
  transactionCategory,
  transactionLabel,
} from "../format";
import { cardClasses, LoadError, Skeleton } from "./card-states";

const CATEGORY_ICONS: Record<TransactionCategory, LucideIcon> = {
  purchase: ShoppingBag,
  bonus: Gift,
  refund: Undo2,
  usage: Zap,
};

export function CreditHistory() {
  const { t } = useTranslation("credits");
  const history = useCreditHistory();
  const transactions = history.data?.pages.flatMap((page) => page.transactions) ?? [];

  return (
    <section aria-labelledby="history-title" className={`${cardClasses} mt-10`}>
      <h2 id="history-title" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
        <History aria-hidden="true" className="size-5 text-accent-ink" />
        {t("history.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("history.lede")}</p>

      <div className="mt-5">
        {history.isError && transactions.length === 0 ? (
          <LoadError error={history.error} onRetry={() => void history.refetch()} />
        ) : history.isPending ? (
          <ul aria-hidden="true" className="divide-y divide-line">
            {[0, 1, 2].map((row) => (
              <li key={row} className="flex items-center gap-4 py-4">
                <Skeleton className="size-10 rounded-xl" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-3 w-28" />
                </div>
                <Skeleton className="h-5 w-14" />
              </li>
            ))}
          </ul>
        ) : transactions.length === 0 ? (
          <p className="rounded-2xl bg-surface-2 px-4 py-8 text-center text-sm text-ink-muted">
            {t("history.empty")}
          </p>
        ) : (
          <ul aria-label={t("history.listLabel")} className="divide-y divide-line">
            {transactions.map((transaction) => (
              <TransactionRow key={transaction.id} transaction={transaction} />
            ))}
          </ul>
        )}
      </div>

      {history.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button
            onClick={() => void history.fetchNextPage()}
            loading={history.isFetchingNextPage}
            variant="secondary"
            size="sm"
          >
            {t("history.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function TransactionRow({ transaction }: { transaction: CreditTransaction }) {
  const { t } = useTranslation("credits");
  const {
    transaction_type: type,
    credits_amount: amount,
    description,
    created_at,
    balance_after,
  } = transaction;
  const category = transactionCategory(type, amount);
  const Icon = CATEGORY_ICONS[category];
  const label = transactionLabel(type);
  // The server's description of the row (shown when it says more than the label).
  const detail = description ? translateServerMessage(description) : "";
  const positive = amount > 0;
  return (
    <li className="flex items-center gap-3 py-4 sm:gap-4">
      <span
        aria-hidden="true"
        className={`grid size-10 shrink-0 place-items-center rounded-xl ${
          positive ? "bg-success/10 text-success" : "bg-accent-soft text-accent-ink"
        }`}
      >
        <Icon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold">{label}</p>
        <p className="truncate text-xs text-ink-muted">
          {detail && detail !== label ? <span data-server-text>{`${detail} · `}</span> : null}
          <time dateTime={created_at}>{formatDateTime(created_at)}</time>
        </p>
      </div>
      <div className="shrink-0 text-end">
        <p className={`text-sm font-semibold tabular-nums ${positive ? "text-success" : "text-ink"}`}>
          {signedAmount(amount)} <span className="font-medium">{creditLabel(amount)}</span>
        </p>
        <p className="text-xs text-ink-muted tabular-nums">
          {t("history.balance", { balance: formatBalance(balance_after) })}
        </p>
      </div>
    </li>
  );
}
