// A chat store for tests of a save that hangs or fails: appends holding `text` wait for release
// (hang) or are refused (refuse); every other append goes through.
import { MemoryFileStore } from "../../src/sessions/memoryStore";

/** A store whose appends holding `text` wait for release (hang) or fail (refuse). */
export class PickyStore extends MemoryFileStore {
	text: string | undefined;
	mode: "hang" | "refuse" = "hang";
	private readonly held: (() => void)[] = [];

	override append(path: string, data: string): Promise<void> {
		if (this.text === undefined || !data.includes(this.text)) return super.append(path, data);
		if (this.mode === "refuse") return Promise.reject(new Error("disk full"));
		return new Promise<void>((resolve) => this.held.push(() => void super.append(path, data).then(resolve)));
	}

	get waiting(): number {
		return this.held.length;
	}

	releaseAll(): void {
		for (const release of this.held.splice(0)) release();
	}
}
