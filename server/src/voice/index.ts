// The voice module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { startSpeechChunkSweep } from "./chunk-sweep";
export { speechBranchPart } from "./deleted-story";
export { planSpeech, SPEECH_RULES_VERSION, type StoryVoices, storyVoices, tellerVoice } from "./narration";
export { narrateMessage, narrateMessageJob } from "./narration-job";
export { speakerSpans, splitForProvider } from "./parts";
export { voiceRoutes } from "./routes";
