import { AppError } from '../../errors';
import type { Driver } from '../driver';
import type { PersonalDriverContext } from '../manager';

export async function createBaileysDriver(_ctx: PersonalDriverContext): Promise<Driver> {
  throw new AppError('CONFLICT', 'Conexão por QR code ainda não disponível neste servidor.');
}
