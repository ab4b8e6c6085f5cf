// Every text the engine can send the panel, in German: warnings, status lines, connection findings
// and the engine's own provider error messages are shown from their codes in the person's language.
// The lists are the engine's own exports, so a code added without a catalogue text fails here.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STATUS_CODES, WARNING_CODES, type NoticeParams } from "../../src/core/notices";
import type { LLMErrorKind } from "../../src/core/types";
import { CONNECTION_CODES } from "../../src/providers/connectionCodes";
import { LLM_ERROR_CODES, LLMError, type LLMErrorCode } from "../../src/providers/errors";
import { PROVIDERS } from "../../src/providers/types";
import { ChatError } from "../../src/chat/errors";
import { setLanguage } from "../../src/i18n";
import { connectionCodeText, connectionText } from "../../src/ui/engine/connectionText";
import { shownWarning, statusText, warningText } from "../../src/ui/engine/warningText";
import { diagnose } from "../../src/ui/panel/errorDiagnosis";
import { errorLine } from "../../src/ui/engine/errorLine";

/** Every parameter any code names, so no text is left with a {placeholder}. */
const PARAMS = (provider: string): NoticeParams => ({
	id: "2026-11-24-harbour",
	line: 7,
	count: 3,
	reported: 2048,
	estimated: 6000,
	window: 8192,
	provider,
	model: "qwen3:8b",
	models: "llama3.2, qwen3:8b",
	origin: "http://localhost:11434",
	url: "http://localhost:11434/api/tags",
	name: "harbour.png",
	status: 500,
});

/** A text in German and in English; the German one must be there, filled, and not the English. */
function inGermanAndEnglish(render: () => string): { de: string; en: string } {
	setLanguage("de", "de-DE");
	const de = render();
	setLanguage("en", "en-US");
	const en = render();
	return { de, en };
}

function expectTranslated(what: string, render: () => string): void {
	const { de, en } = inGermanAndEnglish(render);
	expect(de, what).not.toBe("");
	expect(de, `${what} is English in German: ${de}`).not.toBe(en);
	expect(de, `${what} leaves a placeholder: ${de}`).not.toMatch(/\{[A-Za-z]+\}/);
}

beforeEach(() => setLanguage("en", "en-US"));
afterEach(() => setLanguage("en", "en-US"));

describe("the engine's texts in the person's language", () => {
	it("every warning code the engine can emit renders in German", () => {
		for (const code of WARNING_CODES) expectTranslated(`warning ${code}`, () => warningText(code, PARAMS("ollama")));
	});

	it("every status code renders in German", () => {
		for (const code of STATUS_CODES) expectTranslated(`status ${code}`, () => statusText(code));
	});

	it("every connection finding renders in German, for every provider", () => {
		for (const provider of PROVIDERS) {
			for (const code of CONNECTION_CODES) expectTranslated(`connection ${code} (${provider})`, () => connectionCodeText(code, PARAMS(provider)));
		}
	});

	it("every coded provider error's message renders in German, and its English stays out of the card", () => {
		const kinds: Record<LLMErrorCode, LLMErrorKind> = {
			origin_refused: "auth",
			auth_rejected: "auth",
			api_not_found: "not_found",
			model_missing: "not_found",
			tools_unsupported: "bad_request",
			no_message: "server",
			images_unsupported: "bad_request",
		};
		for (const provider of PROVIDERS) {
			for (const code of LLM_ERROR_CODES) {
				const english = `Engine English for ${code}.`;
				const err = new LLMError(kinds[code], english, { code, params: PARAMS(provider) });
				expectTranslated(`error ${code} (${provider})`, () => diagnose(err).detail);
				const d = diagnose(err);
				expect(`${d.detail} ${d.said ?? ""}`, code).not.toContain(english);
			}
		}
	});

	it("a message or system prompt too long says its sizes in German", () => {
		expectTranslated("message too long", () => diagnose(ChatError.tooLong("text", 9120, 7680)).detail);
		expectTranslated("message too long, system prompt", () => diagnose(ChatError.tooLong("text", 9120, 7680, 5000)).detail);
		expectTranslated("system prompt too long", () => diagnose(ChatError.systemPromptTooLong("text", 9000, 7680)).detail);
		setLanguage("de", "de-DE");
		expect(diagnose(ChatError.tooLong("text", 9120, 7680, 5000)).detail).toContain("9.120");
	});
});

describe("raw words stay apart, folded", () => {
	it("a warning's system reason goes to Details, its text is the catalogue's", () => {
		setLanguage("de", "de-DE");
		const shown = shownWarning({ message: "The answer could not be saved: EACCES", code: "answer_not_saved", detail: "EACCES: permission denied" }, (m) => m);
		expect(shown).toEqual({ text: "Die Antwort konnte nicht gespeichert werden.", detail: "EACCES: permission denied" });
	});

	it("a warning without a code (an older engine, a script) still goes through the known-text table", () => {
		const shown = shownWarning({ message: "Something only English knows" }, (m) => `known:${m}`);
		expect(shown).toEqual({ text: "known:Something only English knows" });
	});

	it("a server's words in a connection finding stay as they came, apart from the text", () => {
		setLanguage("de", "de-DE");
		const found = connectionText({ ok: false, kind: "auth", message: "Ollama rejected the request (HTTP 401): bad key. Check the API key in settings.", code: "auth_rejected", said: "bad key" });
		expect(found).toEqual({ text: "Der Server hat den API-Schlüssel abgelehnt. Prüfe ihn in den Einstellungen.", said: "bad key" });
	});

	it("a bad request shows advice in the person's language, the server's words under Details", () => {
		setLanguage("de", "de-DE");
		const d = diagnose(new LLMError("bad_request", "Invalid value for 'temperature': must be <= 2."));
		expect(d.detail).toBe("Prüfe das Modell und seine Einstellungen, dann versuche es erneut.");
		expect(d.said).toBe("Invalid value for 'temperature': must be <= 2.");
	});

	it("a failed model list says what went wrong in German, the server's words apart; an unclassified error as it came", () => {
		setLanguage("de", "de-DE");
		const err = new LLMError("auth", "Ollama rejected the request (HTTP 401): bad key. Check the API key in settings.", { code: "auth_rejected", said: "bad key" });
		expect(errorLine(err)).toEqual({ title: "Der Server hat den API-Schlüssel abgelehnt", text: "Der Server hat den API-Schlüssel abgelehnt. Prüfe den API-Schlüssel in den Einstellungen.", said: "bad key" });
		expect(errorLine(new Error("plain")).text).toBe("plain");
	});

	it("a chat that could not be saved keeps only the system's words under Details", () => {
		const d = diagnose(ChatError.storage("text", new Error("ENOSPC: no space left on device")));
		expect(d.said).toBe("ENOSPC: no space left on device");
	});
});
