// Every shipped catalogue, by language. All of them are bundled into main.js: Obsidian loads only
// that file, and the whole set costs a few tens of kilobytes.
import type { Translation } from "./catalogue";
import { en } from "./en";
import type { Language } from "./languages";
import { zhCN } from "./zh-CN";
import { zhTW } from "./zh-TW";
import { ja } from "./ja";
import { ko } from "./ko";
import { es } from "./es";
import { fr } from "./fr";
import { de } from "./de";
import { ru } from "./ru";
import { ptBR } from "./pt-BR";

export const CATALOGUES: Record<Language, Translation> = {
	en,
	"zh-CN": zhCN,
	"zh-TW": zhTW,
	ja,
	ko,
	es,
	fr,
	de,
	ru,
	"pt-BR": ptBR,
};
