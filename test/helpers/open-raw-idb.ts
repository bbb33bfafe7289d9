/**
 * Opens an IndexedDB database outside the adapter under test (as another tab would), at `version`
 * when given, running `upgrade` if the open upgrades it; `blocked` says whether the open was blocked.
 */
export function openRaw(factory: IDBFactory, name: string, version?: number, upgrade?: (db: IDBDatabase) => void) {
  const request = version === undefined ? factory.open(name) : factory.open(name, version);
  let blocked = false;
  request.onblocked = () => (blocked = true);
  request.onupgradeneeded = () => upgrade?.(request.result);
  const done = new Promise<IDBDatabase>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return {
    done,
    get blocked() {
      return blocked;
    },
  };
}
