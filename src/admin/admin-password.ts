// The owner's password as the back office and the server both know it (docs/decisions/038-first-sign-in.md):
// its limits and their Russian messages, checked in the form before sending and on the server
// before anything is written; the bodies of the two calls that choose one.

/** As ADMIN_PASSWORD's minimum; the maximum bounds the work of hashing. */
export const PASSWORD_LIMITS = Object.freeze({ min: 10, max: 256 })

/** What signs in at the form: ADMIN_PASSWORD, the owner's own password, or ADMIN_TOKEN while there is none. */
export type SignInWith = 'environment' | 'owner' | 'token'

/** POST /api/admin/setup: the one-time link's token and the first password. */
export interface SetupRequest {
  readonly token: string
  readonly password: string
}

/** PUT /api/admin/password: the secret that signs in now and the new password. */
export interface PasswordChange {
  readonly current: string
  readonly password: string
}

/** The Russian reason a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string' || password === '') return 'Введите пароль'
  if (password.length < PASSWORD_LIMITS.min) return `Пароль должен быть не короче ${PASSWORD_LIMITS.min} символов`
  if (password.length > PASSWORD_LIMITS.max) return `Пароль должен быть не длиннее ${PASSWORD_LIMITS.max} символов`
  return null
}

/** The Russian errors of a new password and its repetition, as the server checks them and one more. */
export function newPasswordErrors(
  password: string | null,
  repeat: string | null,
): { password?: string; repeat?: string } {
  const problem = passwordProblem(password ?? '')
  if (problem) return { password: problem }
  if ((repeat ?? '') === '') return { repeat: 'Повторите пароль' }
  return repeat === password ? {} : { repeat: 'Пароли не совпадают' }
}
