/** Manage User Apps (docs/product.md §4): what to remove and what to add, one change at a time. */
export interface UserAppChanges {
  remove: number[];
  add: number[];
}

export function userAppChanges(had: Iterable<number>, checked: Iterable<number>): UserAppChanges {
  const before = new Set(had);
  const after = new Set(checked);
  return {
    remove: [...before].filter((id) => !after.has(id)),
    add: [...after].filter((id) => !before.has(id)),
  };
}

export function toggled(checked: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(checked);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
