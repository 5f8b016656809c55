// Values derived from one world's state and kept beside it (renderers, renderings, compiled
// linkifiers, search stems, channel activity): they belong to the world's store, so two worlds,
// or two servers in one process, never share one. Each kind is a DerivedSlot; its value is made
// the first time a store is asked for it and lives as long as the store. Each value checks its
// own freshness (against Store.partsVersion or the rows it was made from).

export class DerivedSlot<T> {
  constructor(readonly make: () => T) {}
}

export class DerivedValues {
  private readonly values = new Map<DerivedSlot<unknown>, unknown>();

  of<T>(slot: DerivedSlot<T>): T {
    let value = this.values.get(slot) as T | undefined;
    if (value === undefined) this.values.set(slot, (value = slot.make()));
    return value;
  }
}
