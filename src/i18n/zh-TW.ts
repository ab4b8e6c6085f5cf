// 繁體中文 (Traditional Chinese). Typed against the English catalogue (en.ts): a key English does not have is a compile
// error. TO TRANSLATE: keys missing here show in English; `npx tsx scripts/i18n-missing.ts zh-TW`
// lists them, and tests/i18n/complete.test.ts fails until none remain.
import type { Translation } from "./catalogue";

export const zhTW: Translation = {};
