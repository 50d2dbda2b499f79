/*
 * writer_json_levers.c: what a strategy's what-if levers did (SPEC 7.5),
 * as members of its object in simulate's JSON.  Formats only; levers.c
 * applies the levers.
 */
#include "writers.h"

/* A move's instance-hours: of its old type moved, of its new type. */
static json_t *move_obj(double moved, double became)
{
    return json_pack("{s:o, s:o}", "moved_instance_hours",
                     gp_json_number_or_null(moved), "new_instance_hours",
                     gp_json_number_or_null(became));
}

void gp_json_levers(json_t *s, const gp_ledger_levers *v)
{
    json_t *o;

    if (!v->any)
        return;
    o = json_pack("{s:s}", "description", v->what);
    if (v->autoscale)
        json_object_set_new(
            o, "autoscale",
            json_pack("{s:o, s:o, s:o, s:o}", "recorded_instance_hours",
                      gp_json_number_or_null(v->autoscale_recorded_ih),
                      "served_instance_hours",
                      gp_json_number_or_null(v->autoscale_served_ih),
                      "assumed_util_hours",
                      gp_json_number_or_null(v->autoscale_assumed_hours),
                      "hours_without_util",
                      gp_json_number_or_null(v->autoscale_unknown_hours)));
    if (v->rightsize)
        json_object_set_new(o, "rightsize",
                            move_obj(v->moved_ih[0], v->moved_to_ih[0]));
    if (v->migrate)
        json_object_set_new(o, "migrate",
                            move_obj(v->moved_ih[1], v->moved_to_ih[1]));
    json_object_set_new(s, "levers", o);
    json_object_set_new(s, "stranded_commitment_cost",
                        gp_json_number_or_null(v->stranded_commitment_cost));
    json_object_set_new(s, "stranded_instance_hours",
                        gp_json_number_or_null(v->stranded_instance_hours));
}
