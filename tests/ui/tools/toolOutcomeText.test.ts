// The engine's words to the model about the person ("The person declined this call.") are shown to
// the person in their own words and language; a tool's own text passes unchanged.
import { describe, expect, it } from "vitest";
import { declined, STOPPED_BEFORE_RUN, STOPPED_WHILE_RUNNING } from "../../../src/chat/toolRound";
import { setLanguage, t } from "../../../src/i18n";
import { outcomeForPerson } from "../../../src/ui/panel/tools/toolOutcomeText";

describe("a call's outcome, for the person", () => {
	it("says stopped and declined in the person's words, with their reason; other text as is", () => {
		setLanguage("en");
		expect(outcomeForPerson(STOPPED_BEFORE_RUN)).toBe("You stopped the chat before this ran.");
		expect(outcomeForPerson(STOPPED_WHILE_RUNNING)).toBe("You stopped the chat while this ran.");
		expect(outcomeForPerson(declined(undefined))).toBe("You declined this.");
		expect(outcomeForPerson(declined("  not that note "))).toBe("You declined: not that note");
		expect(outcomeForPerson("No note at Notes/Gone.md")).toBe("No note at Notes/Gone.md");
	});

	it("in the person's language", () => {
		setLanguage("ja");
		expect(outcomeForPerson(STOPPED_BEFORE_RUN)).toBe(t("toolCard.stoppedBeforeRun"));
		expect(outcomeForPerson(STOPPED_BEFORE_RUN)).not.toMatch(/person/);
		setLanguage("en");
	});
});
