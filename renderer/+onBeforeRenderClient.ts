// https://vike.dev/onBeforeRenderClient (vike-react) — runs right before React hydrates the page.
import type { PageContextClient } from 'vike/types'

/**
 * Hydration waits for a new task: the browser has just evaluated React and Vike's router, and a
 * tap that arrives meanwhile is handled between the two long tasks instead of after one longer
 * task (Lighthouse's total blocking time counts each task's time beyond 50 ms).
 */
export async function onBeforeRenderClient(pageContext: PageContextClient) {
  if (!pageContext.isHydration) return
  await new Promise<void>((resolve) => setTimeout(resolve, 0))
}
