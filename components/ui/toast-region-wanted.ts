// Whether a component on this page raises toasts (./toast.ts). A store of its own, without sonner, so the
// layout's Toaster can wait on it without putting sonner in every page's scripts.
let wanted = false;
const listeners = new Set<() => void>();

export function wantToastRegion() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export const toastRegionWanted = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  get: () => wanted,
  /** The server renders no region. */
  getServer: () => false,
};
