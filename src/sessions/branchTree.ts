/**
 * The shape of a chat with branches: every message's parent (the message before it on its
 * branch), the active branch's last message (the leaf) and the turns hidden from it. Messages are
 * never removed by a branch operation: a regenerated answer or an edited message adds a sibling,
 * and switching only moves the leaf. Ids only; SessionMessages holds the messages.
 */
export class BranchTree {
	private readonly parentOf = new Map<string, string | null>();
	private readonly childrenOf = new Map<string | null, string[]>();
	/** Insertion order: a parent is always inserted before its children. */
	private readonly order = new Map<string, number>();
	private added = 0;
	private readonly created = new Map<string, string>();
	/** Messages placed by the active branch rather than by a parent named in their record. */
	private readonly implicit = new Set<string>();
	private current: string | null = null;
	/** When the leaf was last set by a switch record (merges keep the newest). */
	leafAt: string | undefined;
	private readonly hiddenIds = new Map<string, { hidden: boolean; at: string | undefined }>();
	private pathCache: string[] | undefined;
	private hiddenCount = 0;

	get leaf(): string | null {
		return this.current;
	}

	has(id: string): boolean {
		return this.parentOf.has(id);
	}

	/**
	 * A new message: under `parent`, or (no parent, the usual case: see FORMAT.md, "Branches")
	 * continuing the active branch. Such messages keep time order among themselves, as a chat written before
	 * branches did: one written on another device at the same moment can land after a later one,
	 * and goes before it, never above a fork. It becomes the leaf.
	 */
	add(id: string, parent: string | null | undefined, createdAt: string): void {
		if (this.parentOf.has(id)) return;
		this.created.set(id, createdAt);
		let under: string | null;
		let below: string | undefined;
		if (parent === null || (parent !== undefined && this.parentOf.has(parent))) under = parent;
		else {
			this.implicit.add(id);
			under = this.current;
			while (under !== null && this.implicit.has(under) && (this.created.get(under) ?? "") > createdAt) {
				const up: string | null = this.parentOf.get(under) ?? null;
				below = under;
				under = up;
				// Never above a fork: the messages under it belong to other branches too.
				if (under !== null && ((this.childrenOf.get(under)?.length ?? 0) > 1 || !this.implicit.has(under))) break;
			}
		}
		this.parentOf.set(id, under);
		const siblings = this.childrenOf.get(under) ?? [];
		if (below !== undefined) {
			siblings.splice(siblings.indexOf(below), 1, id);
			this.parentOf.set(below, id);
			this.childrenOf.set(id, [below]);
		} else siblings.push(id);
		this.childrenOf.set(under, siblings);
		this.order.set(id, this.added++);
		// The usual append extends the active branch: its cached path grows in place (an append
		// must not cost a walk of the whole chat).
		if (below === undefined && under === this.current && this.pathCache !== undefined) this.pathCache.push(id);
		else this.pathCache = undefined;
		if (below === undefined) this.current = id;
	}

	/** When the message was created (as its record says). */
	createdAt(id: string): string | undefined {
		return this.created.get(id);
	}

	/** Every message id, parents before children, siblings oldest first: the order records are written in. */
	ordered(): string[] {
		const out: string[] = [];
		const stack = [...(this.childrenOf.get(null) ?? [])].reverse();
		while (stack.length > 0) {
			const id = stack.pop()!;
			out.push(id);
			stack.push(...[...(this.childrenOf.get(id) ?? [])].reverse());
		}
		return out;
	}

	/** Takes a message out (a failed answer's checkpoint); its children, if any, move up to its parent. */
	remove(id: string): void {
		if (!this.parentOf.has(id)) return;
		const parent = this.parentOf.get(id) ?? null;
		const siblings = (this.childrenOf.get(parent) ?? []).filter((s) => s !== id);
		for (const child of this.childrenOf.get(id) ?? []) {
			this.parentOf.set(child, parent);
			siblings.push(child);
		}
		siblings.sort((a, b) => (this.order.get(a) ?? 0) - (this.order.get(b) ?? 0));
		this.childrenOf.set(parent, siblings);
		this.childrenOf.delete(id);
		this.parentOf.delete(id);
		this.order.delete(id);
		this.created.delete(id);
		this.implicit.delete(id);
		if (this.current === id) this.current = parent;
		this.pathCache = undefined;
	}

	/** Makes the branch ending at `leaf` active (an id this file does not hold is ignored). */
	switchTo(leaf: string | null, at: string | undefined): void {
		this.leafAt = at;
		if (leaf !== null && !this.parentOf.has(leaf)) return;
		this.current = leaf;
		this.pathCache = undefined;
	}

	parent(id: string): string | null | undefined {
		return this.parentOf.get(id);
	}

	/** Every message id, parents before children (the order records must be written in). */
	ids(): string[] {
		return [...this.order.keys()];
	}

	/** The active branch's ids, first message first. */
	path(): readonly string[] {
		this.pathCache ??= this.pathTo(this.current);
		return this.pathCache;
	}

	/** The ids of the branch ending at `leaf`, first message first. */
	pathTo(leaf: string | null): string[] {
		const path: string[] = [];
		for (let id = leaf; id !== null && this.parentOf.has(id); id = this.parentOf.get(id) ?? null) path.push(id);
		return path.reverse();
	}

	/** The last message of every branch. */
	leaves(): string[] {
		return this.ids().filter((id) => (this.childrenOf.get(id)?.length ?? 0) === 0);
	}

	/** The messages under the same parent as `id` (its alternatives, itself included), oldest first. */
	siblings(id: string): string[] {
		if (!this.parentOf.has(id)) return [];
		return [...(this.childrenOf.get(this.parentOf.get(id) ?? null) ?? [])];
	}

	/** The newest message in `id`'s subtree (itself when it has none): where switching to it leads. */
	latestDescendant(id: string): string {
		let best = id;
		let bestOrder = this.order.get(id) ?? -1;
		const stack = [...(this.childrenOf.get(id) ?? [])];
		while (stack.length > 0) {
			const next = stack.pop()!;
			const at = this.order.get(next) ?? -1;
			if (at > bestOrder) {
				best = next;
				bestOrder = at;
			}
			for (const child of this.childrenOf.get(next) ?? []) stack.push(child);
		}
		return best;
	}

	isHidden(id: string): boolean {
		return this.hiddenIds.get(id)?.hidden === true;
	}

	hiddenAt(id: string): string | undefined {
		return this.hiddenIds.get(id)?.at;
	}

	/** Ids with a hide mark set (hidden or restored), for a rewrite. */
	marks(): [string, { hidden: boolean; at: string | undefined }][] {
		return [...this.hiddenIds.entries()];
	}

	/** True when `id` had a mark before (the earlier record is now superseded). */
	setHidden(id: string, hidden: boolean, at: string | undefined): boolean {
		const had = this.hiddenIds.get(id);
		this.hiddenCount += (hidden ? 1 : 0) - (had?.hidden === true ? 1 : 0);
		this.hiddenIds.set(id, { hidden, at });
		return had !== undefined;
	}

	/** Whether anything is hidden at all (most chats: no, and the active branch is its whole path). */
	get anyHidden(): boolean {
		return this.hiddenCount > 0;
	}
}
