import { describe, expect, it } from 'vitest';
import { contactsMsg, groupsMsg } from './contacts';
import { countLabel, pluralForm } from './plural';
import { verifyMsg } from './verification';

describe('countLabel', () => {
  it('writes 1 in the singular and larger counts in the plural, with pt-BR digit grouping', () => {
    expect(countLabel(1, 'contato', 'contatos')).toBe('1 contato');
    expect(countLabel(2, 'contato', 'contatos')).toBe('2 contatos');
    expect(countLabel(1234, 'contato', 'contatos')).toBe('1.234 contatos');
    expect(countLabel(1, 'linha com erro', 'linhas com erro')).toBe('1 linha com erro');
    expect(countLabel(5000, 'linha com erro', 'linhas com erro')).toBe('5.000 linhas com erro');
  });

  it('writes zero in the plural, as Brazilian usage does, although CLDR files it under "one"', () => {
    // The platform's rule, checked so that a change in it is noticed here.
    expect(new Intl.PluralRules('pt-BR').select(0)).toBe('one');
    expect(countLabel(0, 'contato', 'contatos')).toBe('0 contatos');
    expect(pluralForm(0, 'duplicado ignorado', 'duplicados ignorados')).toBe('duplicados ignorados');
  });

  it('writes whole millions (CLDR "many") in the plural', () => {
    expect(countLabel(1_000_000, 'contato', 'contatos')).toBe('1.000.000 contatos');
    expect(countLabel(2_000_000, 'contato', 'contatos')).toBe('2.000.000 contatos');
  });

  it('agrees with negative counts by their size', () => {
    expect(pluralForm(-1, 'dia', 'dias')).toBe('dia');
    expect(pluralForm(-3, 'dia', 'dias')).toBe('dias');
  });
});

describe('the contract messages that write counts', () => {
  it('agree in the verification summary: the noun with the total, the verb with the part', () => {
    expect(verifyMsg.doneDetail(1, 1)).toBe('1 de 1 contato tem WhatsApp ativo.');
    expect(verifyMsg.doneDetail(1, 1234)).toBe('1 de 1.234 contatos tem WhatsApp ativo.');
    expect(verifyMsg.doneDetail(3, 10)).toBe('3 de 10 contatos têm WhatsApp ativo.');
    expect(verifyMsg.doneDetail(0, 0)).toBe('0 de 0 contatos têm WhatsApp ativo.');
  });

  it('agree in the import and group sync messages (SPEC §8 wording for plural counts)', () => {
    expect(contactsMsg.importDone(1)).toBe('1 contato importado com sucesso');
    expect(contactsMsg.importDone(2)).toBe('2 contatos importados com sucesso');
    expect(contactsMsg.importDone(0)).toBe('0 contatos importados com sucesso');
    expect(contactsMsg.importDuplicates(1)).toBe('1 duplicado ignorado');
    expect(contactsMsg.importRowErrors(1_500)).toBe('1.500 linhas com erro');
    expect(contactsMsg.importPlanLimit(1, 1, 5000, 'Plano Básico')).toBe(
      '1 contato importado; 1 não foi importado porque o Plano Básico permite até 5.000 contatos.',
    );
    expect(groupsMsg.syncDone(1, 1)).toBe('Sincronização concluída: 1 grupo novo, 1 atualizado.');
    expect(groupsMsg.syncDone(0, 3)).toBe('Sincronização concluída: 0 grupos novos, 3 atualizados.');
  });
});
