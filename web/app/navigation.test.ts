import { describe, expect, it } from 'vitest';
import { activeNavItem, visibleNavItems } from './navigation';

const labels = (user: Parameters<typeof visibleNavItems>[0]) => visibleNavItems(user).map((i) => i.label);

describe('visibleNavItems', () => {
  it('gives an owner and a manager every page of the account, Equipe included', () => {
    for (const teamRole of ['owner', 'manager'] as const) {
      expect(labels({ accountType: 'active', teamRole })).toEqual([
        'Dashboard',
        'Números',
        'Campanhas',
        'Chatbot',
        'Conversas',
        'Filas',
        'Contatos',
        'Grupos',
        'Relatórios',
        'Equipe',
        'Configurações',
      ]);
    }
  });

  it('leaves Números, Chatbot and Equipe out of an agent’s menu', () => {
    expect(labels({ accountType: 'active', teamRole: 'agent' })).toEqual([
      'Dashboard',
      'Campanhas',
      'Conversas',
      'Filas',
      'Contatos',
      'Grupos',
      'Relatórios',
      'Configurações',
    ]);
  });

  it('gives an administrator Usuários and no team', () => {
    const admin = labels({ accountType: 'admin', teamRole: 'owner' });
    expect(admin).toContain('Usuários');
    expect(admin).not.toContain('Equipe');
  });

  it('titles /equipe after its entry', () => {
    expect(activeNavItem('/equipe').label).toBe('Equipe');
  });

  it('gives every role Filas, titled after its entry', () => {
    for (const teamRole of ['owner', 'manager', 'agent'] as const) {
      expect(labels({ accountType: 'active', teamRole })).toContain('Filas');
    }
    expect(activeNavItem('/filas').label).toBe('Filas');
  });
});
