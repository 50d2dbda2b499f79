/*
 * models.c: the model table, every purchasing model by gp_model_id, the
 * order in which the ledger holds their costs and the writers list them
 * (model.h).
 */
#include "model.h"

const gp_model *const gp_models[GP_N_MODELS] = {
    [GP_MODEL_ON_DEMAND] = &gp_model_on_demand,
    [GP_MODEL_RESERVED] = &gp_model_reserved,
    [GP_MODEL_SAVINGS_PLAN] = &gp_model_savings_plan,
    [GP_MODEL_SPOT] = &gp_model_spot,
    [GP_MODEL_CAPACITY] = &gp_model_capacity,
};
