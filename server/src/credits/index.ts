// The credits module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { accountBalance, accountLedgerCount, accountLedgerPage, closeLedger } from "./account-rows";
export { heavyUploadGate, holdsHeavySlot } from "./heavy-upload-gate";
export { ledgerTotals, listBalances } from "./history";
export { assertCovers, payFor, refundPaid, withHeavySlot } from "./paid-work";
export { creditRoutes } from "./routes";
export {
  balanceOf,
  type Charge,
  fromTenths,
  grant,
  InsufficientCredits,
  openAccountWithSignupBonus,
  remainingCredits,
  setUnlimitedCredits,
  spentBetween,
  takeBack,
  toTenths,
} from "./service";
export { startUnsettledChargeSweep } from "./unsettled-sweep";
export { type UsageBucket, usageCells } from "./usage-report";
