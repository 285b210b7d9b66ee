// What every ModelArk adapter is built from.
import type { VendorContext } from "../http";

export type BytePlusSettings = Omit<VendorContext, "vendor"> & { model: string };
