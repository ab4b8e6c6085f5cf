// setupFiles of every unit test project (vitest.config.ts): runs before each test file, in the
// worker the files share. The file starts with no timer, fake clock or stub of an earlier one
// (freshFile.ts); registered first, this afterAll runs after the file's own.
import { afterAll, vi } from "vitest";
import { endFile, startFile } from "./freshFile";

// Whatever an earlier file left switched on (fake timers, stubbed globals or env), as a worker of its own would not have.
vi.useRealTimers();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
startFile();

afterAll(async () => {
	// An import the file started and left running (a lazy load nobody awaited) finishes here: its
	// answer comes over this file's channel to vitest, which closes when the file ends.
	await vi.dynamicImportSettled();
	vi.useRealTimers();
	endFile();
});
