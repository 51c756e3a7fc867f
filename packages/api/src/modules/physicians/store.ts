import type { Knex } from 'knex';

export interface PhysicianFields {
  name: string;
  npi: string;
  practice?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  specialty?: string | undefined;
}

/** The physician with this NPI, created or refreshed with the details given (blank ones kept). */
export async function upsertPhysicianByNpi(db: Knex, fields: PhysicianFields): Promise<number> {
  const values = {
    name: fields.name,
    npi: fields.npi,
    practice: fields.practice || null,
    email: fields.email || null,
    phone: fields.phone || null,
    specialty: fields.specialty || null,
  };
  const [row] = await db('physicians')
    .insert(values)
    .onConflict('npi')
    .merge({
      name: values.name,
      practice: db.raw('coalesce(excluded.practice, physicians.practice)'),
      email: db.raw('coalesce(excluded.email, physicians.email)'),
      phone: db.raw('coalesce(excluded.phone, physicians.phone)'),
      specialty: db.raw('coalesce(excluded.specialty, physicians.specialty)'),
      updated_at: db.fn.now(),
    })
    .returning('id');
  return (row as { id: number }).id;
}
