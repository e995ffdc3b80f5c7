import { passwordProblem } from '../../../src/admin/admin-password'

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
