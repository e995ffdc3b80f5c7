// Vike runs each server rendering inside an AsyncLocalStorage. Only two things read it: its
// `getPageContext({ asyncHook: true })`, which the site never calls (vike-react's useConfig() in
// +data reads Vike's synchronous context), and its development logger's request ids. Before Node
// 24, an AsyncLocalStorage that has run installs promise hooks for the whole process, so every
// promise of every request pays for it: 3–10 % of an uncached page's CPU time here
// (docs/decisions/034-uncached-render-cost.md). In production it is switched off before the first
// rendering; development keeps it for Vike's logs. Vike keeps the store in a global of its own
// (`globalThis._vike.globals`), which test/server/vike-patches.test.ts guards.

/**
 * The key of the state of Vike's `dist/server/runtime/asyncHook.js` among its globals (Vike
 * 0.4.266): that module's path in Vike's own sources, not a file of this repository.
 */
export const ASYNC_HOOK_STATE = ['server', 'runtime', 'asyncHook.ts'].join('/')

interface AsyncHookState {
  asyncLocalStorage: unknown
  installPromise: Promise<void>
}

/** Makes Vike render without its AsyncLocalStorage; false when this Vike keeps it elsewhere. */
export async function switchOffVikeAsyncStore(): Promise<boolean> {
  const vike = (globalThis as { _vike?: { globals?: Record<string, AsyncHookState | undefined> } })._vike
  const state = vike?.globals?.[ASYNC_HOOK_STATE]
  if (!state || !('asyncLocalStorage' in state) || !(state.installPromise instanceof Promise)) return false
  await state.installPromise
  state.asyncLocalStorage = null
  return true
}
