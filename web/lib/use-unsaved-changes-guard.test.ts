import { describe, expect, it } from 'vitest';
import { leavesPlace, unsavedChangesMsg, warnBeforeUnload } from './use-unsaved-changes-guard';

describe('leavesPlace', () => {
  const chatbot = { pathname: '/chatbot', search: '' };
  it('blocks another page and other query parameters (a tab kept in ?tab=)', () => {
    expect(leavesPlace(chatbot, { pathname: '/contacts', search: '' })).toBe(true);
    expect(
      leavesPlace({ pathname: '/dashboard', search: '?tab=chatbot' }, { pathname: '/dashboard', search: '' }),
    ).toBe(true);
  });
  it('lets a change of #hash alone through', () => {
    expect(leavesPlace(chatbot, { pathname: '/chatbot', search: '' })).toBe(false);
  });
});

describe('warnBeforeUnload', () => {
  it('asks the browser to confirm', () => {
    let prevented = false;
    const event = { returnValue: undefined, preventDefault: () => (prevented = true) } as unknown as BeforeUnloadEvent;
    warnBeforeUnload(event);
    expect(prevented).toBe(true);
    expect(event.returnValue).toBe('');
  });
});

it('speaks pt-BR', () => {
  expect(unsavedChangesMsg).toEqual({
    title: 'Sair sem salvar?',
    description: 'Você tem alterações não salvas. Se sair agora, elas serão perdidas.',
    leave: 'Sair sem salvar',
    stay: 'Continuar editando',
  });
});
