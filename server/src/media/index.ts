// The media module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { accountGalleryCount, accountGalleryPage, ownedObjectKeysPage } from "./account-rows";
export {
  type BackupMediaItem,
  extensionOfType,
  insertRestoredMediaItems,
  inspectArchivedImage,
  type RestoredMediaItem,
  restoredMediaKey,
  storyMediaForBackup,
} from "./backup-items";
export { type ClipTurns, clipJob, makeClip } from "./clip-job";
export type { DeletedItem, MediaShownIn, MediaUses } from "./delete";
export { mediaFileRoutes, parseRange } from "./file-routes";
export { galleryRoutes } from "./gallery-routes";
export {
  DAMAGED_IMAGE_DETAIL,
  decodeDataUrl,
  IMAGE_ROUTE_BODY_LIMIT,
  inspectImage,
  MAX_IMAGE_BYTES,
  MAX_INPUT_PIXELS,
  prepareReference,
} from "./images";
export { type CheckedInput, checkInputImages, discardUploadedInputs, storeInputImages } from "./inputs";
export { startOrphanedMediaSweep } from "./orphan-sweep";
export {
  assertStorageAvailable,
  installStorageUsage,
  StorageFull,
  setStorageQuota,
  storageUsage,
  storageWithin,
} from "./quota";
export { findOwnedById, findOwnedByKey, type MediaItemRow } from "./repo";
export { mediaRoutes } from "./routes";
export {
  discardMedia,
  discardMediaOfMessage,
  type MediaOrigin,
  newestMediaOfStories,
  ownedImageByKey,
  ownedKeyFromUrl,
  ownedMediaByIds,
  ownedMediaUrl,
  saveImage,
  saveVideo,
  smallImageKeys,
  storyMedia,
  toGalleryItem,
  urlFor,
} from "./service";
export { createMediaStorage } from "./storage/create-storage";
export { contentTypeForKey } from "./storage/keys";
export { meteredStorage } from "./storage/metered";
export { createMediaSigner, linkExpiry, parseExpiry } from "./storage/signing";
export type { ByteRange, MediaStorage } from "./storage/types";
