/** Input attributes shared by every e-mail field: the browser fills it and leaves its case alone. */
export const emailInputProps = {
  type: 'email',
  autoComplete: 'email',
  autoCapitalize: 'none',
  spellCheck: false,
  placeholder: 'voce@empresa.com.br',
} as const;

/** Input attributes shared by every WhatsApp number field of the sign-up forms. */
export const whatsappInputProps = {
  type: 'tel',
  inputMode: 'tel',
  autoComplete: 'tel',
  placeholder: '(11) 99999-9999',
} as const;

/** Input attributes of a login name field (the user name is typed as is). */
export const usernameInputProps = {
  autoComplete: 'username',
  autoCapitalize: 'none',
  spellCheck: false,
} as const;
