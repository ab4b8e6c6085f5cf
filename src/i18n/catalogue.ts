// The shape of a message catalogue, derived from the English one (en.ts, the source of truth): its
// keys are the only keys there are, and a message's {placeholders} are the variables t() requires.
import type { en } from "./en";

/** CLDR plural categories; `other` is the one every language has. */
export type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";

/** A message that depends on `{count}`: one text per plural category the language uses. */
export type PluralForms = Partial<Record<PluralCategory, string>> & { other: string };

export type Message = string | PluralForms;

type English = typeof en;
export type MessageKey = keyof English;

/** What a translation of each key must be: text for text, plural forms for plural forms. */
export type Catalogue = { [K in MessageKey]: English[K] extends string ? string : PluralForms };

/** A translation in progress: the keys it lacks fall back to English at run time (tests/i18n gates it). */
export type Translation = Partial<Catalogue>;

/** The texts of a message: itself, or every plural form. */
type TextsOf<M> = M extends string ? M : M extends Record<string, infer S> ? S : never;

/** The names inside `{…}` in a text, e.g. "Hello {name}" → "name". */
type PlaceholdersIn<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | PlaceholdersIn<Rest> : never;

export type Placeholder<K extends MessageKey> = PlaceholdersIn<TextsOf<English[K]>>;

/** The variables a message needs: `count` is a number (it picks the plural form), others text or numbers. */
export type VarsOf<K extends MessageKey> = { [P in Placeholder<K>]: P extends "count" ? number : string | number };

/** t()'s arguments after the key: nothing for a message without placeholders, else all of them. */
export type VarsArg<K extends MessageKey> = [Placeholder<K>] extends [never] ? [] : [vars: VarsOf<K>];

/** Keys of messages without placeholders: what a table of keys holds when t() is called with no variables. */
export type PlainKey = { [K in MessageKey]: [Placeholder<K>] extends [never] ? K : never }[MessageKey];
