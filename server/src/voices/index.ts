// The voices module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export {
  assertVoiceOffered,
  listVoices,
  sampleUrl,
  speechUnitPrice,
  voiceProvider,
  voiceSample,
} from "./catalog";
